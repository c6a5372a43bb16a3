A 0 1|||R:DET|||The|||REQUIRED|||-NONE-|||0
S He have two cat .
A 1 2|||R:VERB:SVA|||has|||REQUIRED|||-NONE-|||0
A 3 4|||R:NOUN:NUM|||cats|||REQUIRED|||-NONE-

S They was happy .
A 1 2|||R:VERB:SVA|||were|||REQUIRED|||-NONE-|||0

S We goes home .
A 1 9|||R:VERB:SVA|||go|||REQUIRED|||-NONE-|||0

S It is a apple .
A 2 3|||R:DET|||an|||REQUIRED|||-NONE-|||1
A 2 X|||R:DET|||an|||REQUIRED|||-NONE-|||0

S I has a dog .
A 1 2|||R:VERB:SVA|||have|||REQUIRED|||-NONE-|||0
A 1 3|||R:OTHER|||have one|||REQUIRED|||-NONE-|||0

S You is late .
A 1 7|||R:VERB:SVA|||are|||REQUIRED|||-NONE-|||1
A 1 2|||R:VERB:SVA|||are|||REQUIRED|||-NONE-|||0
X stray line
S Dogs barks .
A 1 2|||R:VERB:SVA|||bark|||REQUIRED|||-NONE-|||zero
S Cats sleeps .
A 1 2|||R:VERB:SVA|||sleep|||REQUIRED|||-NONE-|||0
