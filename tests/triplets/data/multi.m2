S This are gramamtical sentence .
A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0
A 2 2|||M:DET|||a|||REQUIRED|||-NONE-|||0
A 2 3|||R:SPELL|||grammatical|||REQUIRED|||-NONE-|||0
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1

S I like play football in the weekend .
A 2 3|||R:VERB:FORM|||playing|||REQUIRED|||-NONE-|||0
A 4 5|||R:PREP|||at|||REQUIRED|||-NONE-|||0
A 2 2|||M:VERB|||to|||REQUIRED|||-NONE-|||1
A 4 5|||R:PREP|||on|||REQUIRED|||-NONE-|||1

S She go to school every days .
A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||1
A 5 6|||R:NOUN:NUM|||day|||REQUIRED|||-NONE-|||1

S The book is very very good .
A 4 5|||U:ADV||||||REQUIRED|||-NONE-|||0

S Everything was fine .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
