S There are five people in my family .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S My father is engineer and he works in a big company .
A 3 3|||M:DET|||an|||REQUIRED|||-NONE-|||0

S My mother very kind and she cooks every day .
A 2 2|||M:VERB|||is|||REQUIRED|||-NONE-|||0

S I have two brother and one sister .
A 3 4|||R:NOUN:NUM|||brothers|||REQUIRED|||-NONE-|||0

S My sister she is a student at the university .
A 2 3|||U:PRON||||||REQUIRED|||-NONE-|||0

S My brother like playing computer games .
A 2 3|||R:SPELL|||likes|||REQUIRED|||-NONE-|||0

S On Sunday we usually eat together in my grandmothers house .
A 6 7|||R:PREP|||at|||REQUIRED|||-NONE-|||0
A 8 9|||R:NOUN:POSS|||grandmother 's|||REQUIRED|||-NONE-|||0

S I love my family very .
A 5 5|||M:ADV|||much|||REQUIRED|||-NONE-|||0

S My grandmother is eighty and he still goes to the market every day .
A 5 6|||R:PRON|||she|||REQUIRED|||-NONE-|||0

S Last summer I take a train from Beijing to Shanghai .
A 3 4|||R:VERB:TENSE|||took|||REQUIRED|||-NONE-|||0

S The journey was very long but the train was comfortable .
A 5 5|||M:PUNCT|||,|||REQUIRED|||-NONE-|||0

S Although the ticket was expensive , but the seats were very good .
A 6 7|||U:CONJ||||||REQUIRED|||-NONE-|||0

S I sat next a old man who told me many storys about his life .
A 3 3|||M:PREP|||to|||REQUIRED|||-NONE-|||0
A 3 4|||R:DET|||an|||REQUIRED|||-NONE-|||0
A 10 11|||R:NOUN:INFL|||stories|||REQUIRED|||-NONE-|||0

S He said me that he was a teacher for forty years .
A 1 2|||R:VERB|||told|||REQUIRED|||-NONE-|||0
A 5 6|||R:VERB:TENSE|||had been|||REQUIRED|||-NONE-|||0

S When we arrived to Shanghai it was already dark .
A 3 4|||R:PREP|||in|||REQUIRED|||-NONE-|||0

S I was very tired so I went to the hotel directly .
A 4 4|||M:PUNCT|||,|||REQUIRED|||-NONE-|||0
A 7 7|||M:ADV|||directly|||REQUIRED|||-NONE-|||0
A 10 11|||U:ADV||||||REQUIRED|||-NONE-|||0

S I come from a small town in the north of Spain .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S In my town there is river and many old building .
A 5 5|||M:DET|||a|||REQUIRED|||-NONE-|||0
A 9 10|||R:NOUN:NUM|||buildings|||REQUIRED|||-NONE-|||0

S The people is very friendly and they like to talk in street .
A 2 3|||R:VERB:SVA|||are|||REQUIRED|||-NONE-|||0
A 11 11|||M:DET|||the|||REQUIRED|||-NONE-|||0

S Every year we have a festival in the August .
A 7 8|||U:DET||||||REQUIRED|||-NONE-|||0

S During the festival all the families go to the main square for dance .
A 11 12|||R:PART|||to|||REQUIRED|||-NONE-|||0

S Is very beautiful when the lights are on at night .
A 0 1|||M:PRON|||It is|||REQUIRED|||-NONE-|||0

S I miss my town since I moved to Madrid .
A 1 2|||R:VERB:TENSE|||have missed|||REQUIRED|||-NONE-|||0

S If you visit it , you will enjoy the food the wine .
A 10 10|||M:CONJ|||and|||REQUIRED|||-NONE-|||0

S I grew in a house near the river .
A 2 2|||M:PART|||up|||REQUIRED|||-NONE-|||0

S You can find see many old buildings there .
A 2 3|||U:VERB||||||REQUIRED|||-NONE-|||0

S Nowadays many people work from the home .
A 5 6|||U:DET||||||REQUIRED|||-NONE-|||0

S Working from home has many advantages and but also some disadvantages .
A 7 8|||U:CONJ||||||REQUIRED|||-NONE-|||0

S First , you do n't need to spend time in the traffic .
A 10 11|||U:DET||||||REQUIRED|||-NONE-|||0

S Second , you can organise your day how you prefer .
A 7 8|||R:OTHER|||as|||REQUIRED|||-NONE-|||0

S However , is difficult to separate your work and your private life .
A 2 2|||M:PRON|||it|||REQUIRED|||-NONE-|||0

S Some of my colleagues feel alone because they do n't see nobody all day .
A 5 6|||R:ADJ|||lonely|||REQUIRED|||-NONE-|||0
A 11 12|||R:NOUN|||anybody|||REQUIRED|||-NONE-|||0

S In my opinion , the best solution is to work two days in the office .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S My boss agree with me and she is planning to change the rules .
A 2 3|||R:VERB:SVA|||agrees|||REQUIRED|||-NONE-|||0

S People want need more time for their families .
A 1 2|||U:VERB||||||REQUIRED|||-NONE-|||0

S The environment is one of most important problem in our time .
A 5 5|||M:DET|||the|||REQUIRED|||-NONE-|||0
A 7 8|||R:NOUN:NUM|||problems|||REQUIRED|||-NONE-|||0
A 8 9|||R:PREP|||of|||REQUIRED|||-NONE-|||0

S Many scientists says that the temperature will rise quickly .
A 2 3|||R:VERB:SVA|||say|||REQUIRED|||-NONE-|||0

S We must to reduce down the pollution from cars and factories .
A 2 3|||U:VERB:FORM||||||REQUIRED|||-NONE-|||0
A 4 5|||U:PART||||||REQUIRED|||-NONE-|||0

S Governments should put invest more money into renewable energy .
A 2 3|||U:VERB||||||REQUIRED|||-NONE-|||0
A 6 7|||R:PREP|||in|||REQUIRED|||-NONE-|||0

S In Germany we separate the rubbish since many years .
A 3 4|||R:VERB:TENSE|||have separated|||REQUIRED|||-NONE-|||0
A 4 5|||R:DET|||our|||REQUIRED|||-NONE-|||0
A 6 7|||R:PREP|||for|||REQUIRED|||-NONE-|||0

S But also every person can do something small .
A 1 2|||U:ADV||||||REQUIRED|||-NONE-|||0
A 5 5|||M:ADV|||also|||REQUIRED|||-NONE-|||0

S For example , you can use the bicycle instead of the car .
A 6 7|||R:DET|||a|||REQUIRED|||-NONE-|||0
A 10 11|||R:DET|||a|||REQUIRED|||-NONE-|||0

S I think the young people are more conscious about this problem .
A 2 3|||U:DET||||||REQUIRED|||-NONE-|||0
A 7 8|||R:ADJ|||aware|||REQUIRED|||-NONE-|||0
A 8 9|||R:PREP|||of|||REQUIRED|||-NONE-|||0

S Cars are the bigger source of pollution in cities .
A 3 4|||R:ADJ:FORM|||biggest|||REQUIRED|||-NONE-|||0

S I wake at six o'clock every morning .
A 2 2|||M:PART|||up|||REQUIRED|||-NONE-|||0

S Then I take a shower and I eat the breakfast .
A 8 9|||U:DET||||||REQUIRED|||-NONE-|||0

S I go to work by the bus because I do n't have car .
A 5 6|||U:DET||||||REQUIRED|||-NONE-|||0
A 12 12|||M:DET|||a|||REQUIRED|||-NONE-|||0

S The bus always is full of people and very hot .
A 2 4|||R:WO|||is always|||REQUIRED|||-NONE-|||0

S I start work at eight I finish at four .
A 5 5|||M:CONJ|||and|||REQUIRED|||-NONE-|||0

S After work I go to gym with my friend Ahmed .
A 5 5|||M:DET|||the|||REQUIRED|||-NONE-|||0

S In the evening I watching TV or I read a book .
A 4 5|||R:VERB:FORM|||watch|||REQUIRED|||-NONE-|||0

S I go to bed at the eleven .
A 5 6|||U:DET||||||REQUIRED|||-NONE-|||0

S My two childs go to school near our house .
A 2 3|||R:NOUN:INFL|||children|||REQUIRED|||-NONE-|||0

S My office near the station .
A 2 2|||M:VERB|||is|||REQUIRED|||-NONE-|||0

S When I was young , my mother took drove me to school every day .
A 7 8|||U:VERB||||||REQUIRED|||-NONE-|||0

S Two years ago I went to Turkey with my familly .
A 9 10|||R:SPELL|||family|||REQUIRED|||-NONE-|||0

S We stayed in a hotel near of the sea .
A 6 7|||U:PREP||||||REQUIRED|||-NONE-|||0

S Every day we swimmed in the sea and we played on the beach .
A 3 4|||R:VERB|||swam|||REQUIRED|||-NONE-|||0

S The food was more delicious than the food in our country .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S One day we visited a old castle on a hill .
A 4 5|||R:DET|||an|||REQUIRED|||-NONE-|||0

S My little brother losed his shoe on the way .
A 3 4|||R:VERB:INFL|||lost|||REQUIRED|||-NONE-|||0

S We were laughing very much about it .
A 1 3|||R:VERB:TENSE|||laughed|||REQUIRED|||-NONE-|||0
A 3 4|||R:OTHER|||a|||REQUIRED|||-NONE-|||0
A 4 5|||R:OTHER|||lot|||REQUIRED|||-NONE-|||0

S It was the better holiday of my life .
A 3 4|||R:ADJ|||best|||REQUIRED|||-NONE-|||0

S We enjoyed the trip very .
A 5 5|||M:ADV|||much|||REQUIRED|||-NONE-|||0

S My hobby is taking photos of the nature .
A 6 7|||U:DET||||||REQUIRED|||-NONE-|||0

S I started this hobby when I a high school student .
A 6 6|||M:VERB|||was|||REQUIRED|||-NONE-|||0

S I usually go to the mountains in weekends .
A 6 7|||R:PREP|||at|||REQUIRED|||-NONE-|||0

S I very like the quiet atmosphere there .
A 1 2|||R:ADV|||really|||REQUIRED|||-NONE-|||0

S Last month I buyed a new camera .
A 3 4|||R:VERB:INFL|||bought|||REQUIRED|||-NONE-|||0

S It was expensive but it takes very beautiful pictures .
A 3 3|||M:PUNCT|||,|||REQUIRED|||-NONE-|||0

S I want show my picture in a exhibition someday .
A 2 2|||M:VERB:FORM|||to|||REQUIRED|||-NONE-|||0
A 4 5|||R:NOUN:NUM|||pictures|||REQUIRED|||-NONE-|||0
A 6 7|||R:DET|||an|||REQUIRED|||-NONE-|||0

S My friends says my photos are good .
A 2 3|||R:VERB:SVA|||say|||REQUIRED|||-NONE-|||0

S Today many childrens have a smartphone before they are ten .
A 2 3|||R:SPELL|||children|||REQUIRED|||-NONE-|||0

S Some parents think this is dangerous , and others think it is useful .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S Children can find many informations on the internet .
A 3 4|||R:OTHER|||a lot of|||REQUIRED|||-NONE-|||0
A 4 5|||R:NOUN:INFL|||information|||REQUIRED|||-NONE-|||0

S However , they can also see things which are not suitable for they .
A 12 13|||R:PRON|||them|||REQUIRED|||-NONE-|||0

S In Japan , many school do not allow phones in classroom .
A 4 5|||R:NOUN:NUM|||schools|||REQUIRED|||-NONE-|||0
A 10 10|||M:DET|||the|||REQUIRED|||-NONE-|||0

S I think the parents should decide how long their children use it .
A 2 3|||U:DET||||||REQUIRED|||-NONE-|||0

S The technology itself is not bad , but we must use it careful .
A 12 13|||R:MORPH|||carefully|||REQUIRED|||-NONE-|||0

S Although phones are useful , but children need time to play outside .
A 5 6|||U:CONJ||||||REQUIRED|||-NONE-|||0

S Yesterday I watched a film what was called " The Long Road " .
A 5 6|||R:PRON|||which|||REQUIRED|||-NONE-|||0

S The film is about a man who loses his memory after a accident .
A 11 12|||R:DET|||an|||REQUIRED|||-NONE-|||0

S He tries to find his family but nobody recognise he .
A 6 6|||M:PUNCT|||,|||REQUIRED|||-NONE-|||0
A 8 9|||R:VERB:SVA|||recognises|||REQUIRED|||-NONE-|||0
A 9 10|||R:PRON|||him|||REQUIRED|||-NONE-|||0

S The actors played very good and the music was wonderful .
A 4 5|||R:ADV|||well|||REQUIRED|||-NONE-|||0

S The story was a little slow in the middle of film .
A 10 10|||M:DET|||the|||REQUIRED|||-NONE-|||0

S I was surprised by the end , it was very sad .
A 6 7|||R:PUNCT|||;|||REQUIRED|||-NONE-|||0

S I recommend this film to everybody who likes dramas .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S He wants to find who he really is .
A 4 4|||M:PART|||out|||REQUIRED|||-NONE-|||0

S In my city the public transport is cheap but not very comfortable .
A 3 4|||U:DET||||||REQUIRED|||-NONE-|||0

S The buses are old and often they come late .
A 5 7|||R:WO|||they often|||REQUIRED|||-NONE-|||0

S The metro is more fast than the bus .
A 3 4|||U:ADV||||||REQUIRED|||-NONE-|||0
A 4 5|||R:ADJ:FORM|||faster|||REQUIRED|||-NONE-|||0

S Many people prefer to drive the car , so there are traffic jams every day .
A 5 7|||U:OTHER||||||REQUIRED|||-NONE-|||0

S The city government promised to buy new buses next year .
A 3 3|||M:VERB:TENSE|||has|||REQUIRED|||-NONE-|||0

S I think they should build also more cycle lanes .
A 4 6|||R:WO|||also build|||REQUIRED|||-NONE-|||0

S If the transport will be better , people will leave their cars at home .
A 3 5|||R:VERB:TENSE|||is|||REQUIRED|||-NONE-|||0

S It will be good for the air for our health .
A 7 7|||M:CONJ|||and|||REQUIRED|||-NONE-|||0

S We need to lower down the prices of public transport .
A 4 5|||U:PART||||||REQUIRED|||-NONE-|||0

S This makes causes many problems for old people .
A 1 2|||U:VERB||||||REQUIRED|||-NONE-|||0

S In Brazil we eat rice beans almost every day .
A 5 5|||M:CONJ|||and|||REQUIRED|||-NONE-|||0

S My mother cook very good .
A 2 3|||R:VERB:SVA|||cooks|||REQUIRED|||-NONE-|||0
A 4 5|||R:ADV|||well|||REQUIRED|||-NONE-|||0

S Her speciality a fish soup with coconut milk .
A 2 2|||M:VERB|||is|||REQUIRED|||-NONE-|||0

S I like too much the Italian food .
A 2 5|||U:OTHER||||||REQUIRED|||-NONE-|||0
A 7 7|||M:ADV|||very much|||REQUIRED|||-NONE-|||0

S I can cooking pasta and some cakes .
A 2 3|||R:VERB:FORM|||cook|||REQUIRED|||-NONE-|||0

S On Saturday I made a chocolate cake for my friends birthday .
A 9 10|||R:NOUN:POSS|||friend 's|||REQUIRED|||-NONE-|||0

S Everybody eated two pieces .
A 1 2|||R:VERB:INFL|||ate|||REQUIRED|||-NONE-|||0

S Dear Anna , thank you for you letter .
A 6 7|||R:DET|||your|||REQUIRED|||-NONE-|||0

S I am sorry I did n't write to you before .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S I were very busy with my exams in last month .
A 1 2|||R:VERB:SVA|||was|||REQUIRED|||-NONE-|||0
A 7 8|||U:PREP||||||REQUIRED|||-NONE-|||0

S Now I have more free time I go to the beach every afternoon .
A 6 6|||M:CONJ|||and|||REQUIRED|||-NONE-|||0

S Do you want to visit me in July ?
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S We can stay in my uncle 's house near to the beach .
A 9 10|||U:PREP||||||REQUIRED|||-NONE-|||0

S Please write me soon and tell me your plans .
A 2 2|||M:PREP|||to|||REQUIRED|||-NONE-|||0

S Could you pick me from the airport ?
A 4 4|||M:PART|||up|||REQUIRED|||-NONE-|||0

S I will call up you when I arrive .
A 3 4|||U:PART||||||REQUIRED|||-NONE-|||0

S My sister and me will come to see you .
A 3 4|||R:PRON|||I|||REQUIRED|||-NONE-|||0

S Studying abroad is a great opportunity for the young people .
A 7 8|||U:DET||||||REQUIRED|||-NONE-|||0

S When I studied in Ireland , I learned much more than at university in France .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S First of all , I improved my English because I had to speak all the time .
A 13 13|||M:PRON|||it|||REQUIRED|||-NONE-|||0

S I also met students from all over the world , we are still friends .
A 10 10|||M:CONJ|||and|||REQUIRED|||-NONE-|||0

S At the beginning it was hard to understand the irish accent .
A 9 10|||R:ORTH|||Irish|||REQUIRED|||-NONE-|||0

S My landlady explained me many expressions .
A 3 4|||U:PRON||||||REQUIRED|||-NONE-|||0
A 6 6|||M:OTHER|||to me|||REQUIRED|||-NONE-|||0

S I was living there during one year .
A 1 3|||R:VERB:TENSE|||lived|||REQUIRED|||-NONE-|||0
A 4 5|||R:PREP|||for|||REQUIRED|||-NONE-|||0

S Nevertheless , studying abroad is expensive and not every student can afford .
A 12 12|||M:PRON|||it|||REQUIRED|||-NONE-|||0

S When I arrived in Dublin , I had never been abroad .
A 11 11|||M:ADV|||before|||REQUIRED|||-NONE-|||0

S Tourism brings money in a region , yet it also creates problems .
A 3 4|||R:PREP|||to|||REQUIRED|||-NONE-|||0

S In my hometown , the prices of flats have raised dramatically .
A 9 10|||R:VERB|||risen|||REQUIRED|||-NONE-|||0

S Local residents can no longer afford to live in the city centre .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S Moreover , the streets are so crowded in summer that nobody enjoys walking there .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S The authorities have began to limit down the number of cruise ships .
A 3 4|||R:VERB:FORM|||begun|||REQUIRED|||-NONE-|||0
A 6 7|||U:PART||||||REQUIRED|||-NONE-|||0

S This is a step in the right direction , although it is maybe too late .
A 12 13|||R:ADV|||perhaps|||REQUIRED|||-NONE-|||0

S Tourists should respect the places they visit and the people which live there .
A 10 11|||R:PRON|||who|||REQUIRED|||-NONE-|||0

S This is one of the older cities in Europe .
A 5 6|||R:ADJ:FORM|||oldest|||REQUIRED|||-NONE-|||0

S Online shopping become more and more popular in China .
A 2 2|||M:VERB:TENSE|||has|||REQUIRED|||-NONE-|||0

S You can buy almost everything with you phone .
A 6 7|||R:DET|||your|||REQUIRED|||-NONE-|||0

S The delivery is very fast , sometimes you get the package in the same day .
A 5 6|||R:PUNCT|||;|||REQUIRED|||-NONE-|||0
A 11 12|||R:PREP|||on|||REQUIRED|||-NONE-|||0

S But there are also some problems with online shopping .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S Sometimes the product looks different than on the picture .
A 5 7|||R:PREP|||from|||REQUIRED|||-NONE-|||0

S Also , many packages they create a lot of waste .
A 4 5|||U:PRON||||||REQUIRED|||-NONE-|||0

S Because people buy too many things , so the small shops close .
A 7 8|||U:PREP||||||REQUIRED|||-NONE-|||0

S I prefer to see the thing before I buy .
A 9 9|||M:PRON|||it|||REQUIRED|||-NONE-|||0

S My best friends name is Lucia .
A 2 3|||R:NOUN:POSS|||friend 's|||REQUIRED|||-NONE-|||0

S She is tall and she has a long black hair .
A 6 7|||U:DET||||||REQUIRED|||-NONE-|||0

S We know each other since we were six years old .
A 1 2|||R:VERB:TENSE|||have known|||REQUIRED|||-NONE-|||0

S She is more older than me .
A 2 3|||U:ADV||||||REQUIRED|||-NONE-|||0

S Lucia is very funny and she always make me laugh .
A 7 8|||R:VERB:SVA|||makes|||REQUIRED|||-NONE-|||0

S We go to the cinema together every friday .
A 7 8|||R:ORTH|||Friday|||REQUIRED|||-NONE-|||0

S I think she is the better friend in the world .
A 5 6|||R:ADJ|||best|||REQUIRED|||-NONE-|||0

S Although she lives in another city now , but we talk every day .
A 8 9|||U:CONJ||||||REQUIRED|||-NONE-|||0

S Living in a big city has both advantages and drawbacks .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S On the one hand , there is a wide range of cultural activities .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S On the other hand , rents are extremly high .
A 7 8|||R:SPELL|||extremely|||REQUIRED|||-NONE-|||0

S Many young families move to the suburbs , where the houses are more cheap .
A 12 13|||U:ADV||||||REQUIRED|||-NONE-|||0
A 13 14|||R:ADJ:FORM|||cheaper|||REQUIRED|||-NONE-|||0

S Commuting however costs a lot of time and nerves .
A 1 1|||M:PUNCT|||,|||REQUIRED|||-NONE-|||0
A 2 2|||M:PUNCT|||,|||REQUIRED|||-NONE-|||0

S The city should invest into affordable housing .
A 4 5|||R:PREP|||in|||REQUIRED|||-NONE-|||0

S I myself would never want to live in the countryside , because I would miss the theatres .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S Still , I understand people which need more space and silence .
A 5 6|||R:PRON|||who|||REQUIRED|||-NONE-|||0

S Doing sport is very important for the health .
A 6 7|||R:DET|||your|||REQUIRED|||-NONE-|||0

S Doctors recommend to do exercise at least three times in a week .
A 2 4|||R:VERB:FORM|||doing|||REQUIRED|||-NONE-|||0
A 9 10|||U:PREP||||||REQUIRED|||-NONE-|||0

S I go swimming twice a week and I play the football on Fridays .
A 9 10|||U:DET||||||REQUIRED|||-NONE-|||0

S My father he has a problem with his heart .
A 2 3|||U:PRON||||||REQUIRED|||-NONE-|||0

S The doctor said him to walk every day .
A 2 3|||R:VERB|||told|||REQUIRED|||-NONE-|||0

S Now he walks five kilometres every morning , he feels much better .
A 7 8|||R:OTHER|||and|||REQUIRED|||-NONE-|||0

S Also it is important to eat healthy food and sleep enough .
A 0 3|||R:WO|||It is also|||REQUIRED|||-NONE-|||0

S The doctor told him to give smoking .
A 6 6|||M:PART|||up|||REQUIRED|||-NONE-|||0

S Smoking destroys many lifes every year .
A 3 4|||R:NOUN:INFL|||lives|||REQUIRED|||-NONE-|||0

S On Saturday I got late .
A 4 4|||M:PART|||up|||REQUIRED|||-NONE-|||0

S I meet my friends at the station at noon .
A 1 2|||R:VERB:TENSE|||met|||REQUIRED|||-NONE-|||0

S We went to shopping mall and we eat ramen .
A 3 3|||M:DET|||a|||REQUIRED|||-NONE-|||0
A 7 8|||R:VERB:TENSE|||ate|||REQUIRED|||-NONE-|||0

S After that we went karaoke .
A 4 4|||M:PREP|||to|||REQUIRED|||-NONE-|||0

S I sang three song .
A 3 4|||R:NOUN:NUM|||songs|||REQUIRED|||-NONE-|||0

S On sunday I stayed at home and studied english .
A 1 2|||R:ORTH|||Sunday|||REQUIRED|||-NONE-|||0
A 8 9|||R:ORTH|||English|||REQUIRED|||-NONE-|||0

S It was the happier weekend of the month .
A 3 4|||R:ADJ:FORM|||happiest|||REQUIRED|||-NONE-|||0

S I catched the last train home .
A 1 2|||R:VERB:INFL|||caught|||REQUIRED|||-NONE-|||0

S Education is the key for a successful society .
A 4 5|||R:PREP|||to|||REQUIRED|||-NONE-|||0

S In Russia , school education is free , but university is often expensive .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S Many students must work while they are studying , what affects their results .
A 9 10|||R:PRON|||which|||REQUIRED|||-NONE-|||0

S In addition , the curriculum concentrates too much on memorising facts .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S Teachers should encourage students to think critical .
A 6 7|||R:MORPH|||critically|||REQUIRED|||-NONE-|||0

S Moreover , teachers ' salarys are too low to attract talented graduates .
A 4 5|||R:NOUN:INFL|||salaries|||REQUIRED|||-NONE-|||0

S The goverment should therefore increase the budget for education .
A 1 2|||R:SPELL|||government|||REQUIRED|||-NONE-|||0

S Otherwise the quality of teaching will continue to decline .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S Many students ca n't cope up with all this stress .
A 5 6|||U:PART||||||REQUIRED|||-NONE-|||0

S I think believe that education should be free for everybody .
A 1 2|||U:VERB||||||REQUIRED|||-NONE-|||0

S Music is a important part of my life .
A 2 3|||R:DET|||an|||REQUIRED|||-NONE-|||0

S I listen music every day when I go to the work .
A 2 2|||M:PREP|||to|||REQUIRED|||-NONE-|||0
A 9 10|||U:DET||||||REQUIRED|||-NONE-|||0

S My favourite kind of music is samba , but I like also jazz .
A 10 12|||R:WO|||also like|||REQUIRED|||-NONE-|||0

S I have learned to play the guitar when I was twelve .
A 1 2|||U:VERB:TENSE||||||REQUIRED|||-NONE-|||0

S My teacher was a old musician who played in many bands .
A 3 4|||R:DET|||an|||REQUIRED|||-NONE-|||0

S He teached me to feel the rhythm , not only to read the notes .
A 1 2|||R:VERB:INFL|||taught|||REQUIRED|||-NONE-|||0

S Now I play in a small band with three of my colleague .
A 11 12|||R:NOUN:NUM|||colleagues|||REQUIRED|||-NONE-|||0

S We play in bars at the weekends and people dance .
A 5 6|||U:DET||||||REQUIRED|||-NONE-|||0

S My brothers guitar is very old but it sounds great .
A 1 2|||R:NOUN:POSS|||brother 's|||REQUIRED|||-NONE-|||0

S I am writing to apply the position of receptionist .
A 5 5|||M:PREP|||for|||REQUIRED|||-NONE-|||0

S I saw your advertisement in the newspaper of yesterday .
A 5 6|||R:OTHER|||yesterday 's|||REQUIRED|||-NONE-|||0
A 7 9|||U:OTHER||||||REQUIRED|||-NONE-|||0

S I have worked in a hotel during three years .
A 6 7|||R:PREP|||for|||REQUIRED|||-NONE-|||0

S I am used to deal with customers from different countries .
A 4 5|||R:VERB:FORM|||dealing|||REQUIRED|||-NONE-|||0

S I speak French , English and a little of Spanish .
A 8 9|||U:PREP||||||REQUIRED|||-NONE-|||0

S I am a very organised and reliable person .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S I am looking forward to hear from you .
A 5 6|||R:VERB:FORM|||hearing|||REQUIRED|||-NONE-|||0

S The Spring Festival is the bigger festival in China .
A 5 6|||R:ADJ:FORM|||biggest|||REQUIRED|||-NONE-|||0

S Before the festival , people clean their house and buy new clothes .
A 7 8|||R:NOUN:NUM|||houses|||REQUIRED|||-NONE-|||0

S All the family members come back home , even they live very far away .
A 9 9|||M:PREP|||if|||REQUIRED|||-NONE-|||0

S On the evening we eat dumplings and watch a TV programme .
A 0 1|||R:PREP|||In|||REQUIRED|||-NONE-|||0

S The childrens get red envelopes with money from their grandparents .
A 1 2|||R:SPELL|||children|||REQUIRED|||-NONE-|||0

S At midnight there are many firework .
A 5 6|||R:NOUN:NUM|||fireworks|||REQUIRED|||-NONE-|||0

S This year I ca n't go home because I am study in England .
A 10 11|||R:VERB:FORM|||studying|||REQUIRED|||-NONE-|||0

S I miss very much my family .
A 2 6|||R:WO|||my family very much|||REQUIRED|||-NONE-|||0

S Although I am far from home , but I still celebrate with my friends .
A 7 8|||U:CONJ||||||REQUIRED|||-NONE-|||0

S My parents 's friends also visit us .
A 2 3|||R:NOUN:POSS|||'|||REQUIRED|||-NONE-|||0

S We made cooked a big dinner for the whole family .
A 1 2|||U:VERB||||||REQUIRED|||-NONE-|||0

S Social media has changed the way we communicate .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S People spend hours every day for looking at their phones .
A 5 6|||U:PREP||||||REQUIRED|||-NONE-|||0

S Some people only show the perfect side of they life .
A 8 9|||R:DET|||their|||REQUIRED|||-NONE-|||0

S This can make other people feel unhappy lonely .
A 7 7|||M:CONJ|||and|||REQUIRED|||-NONE-|||0

S On the other hand , social media help us to keep in touch with old friends .
A 7 8|||R:VERB:SVA|||helps|||REQUIRED|||-NONE-|||0

S In my opinion the problem is not the technology , is how we use it .
A 10 10|||M:PRON|||it|||REQUIRED|||-NONE-|||0

S We should think careful about what we share online .
A 3 4|||R:MORPH|||carefully|||REQUIRED|||-NONE-|||0

S Even though I know this , but I still check my phone every hour .
A 6 7|||U:CONJ||||||REQUIRED|||-NONE-|||0

S In my country the weather hot and dry in summer .
A 5 5|||M:VERB|||is|||REQUIRED|||-NONE-|||0

S In winter it rains a lot and sometimes there is snow in mountains .
A 12 12|||M:DET|||the|||REQUIRED|||-NONE-|||0

S I prefer the spring because the weather is more nice .
A 2 3|||U:DET||||||REQUIRED|||-NONE-|||0
A 8 9|||U:ADV||||||REQUIRED|||-NONE-|||0
A 9 10|||R:MORPH|||nicer|||REQUIRED|||-NONE-|||0

S Last winter was very cold and many road was closed .
A 7 8|||R:NOUN:NUM|||roads|||REQUIRED|||-NONE-|||0
A 8 9|||R:VERB:SVA|||were|||REQUIRED|||-NONE-|||0

S We could n't go to school during two days .
A 6 7|||R:PREP|||for|||REQUIRED|||-NONE-|||0

S The climate is changing and this summer was the hotter in history .
A 9 10|||R:OTHER|||hottest|||REQUIRED|||-NONE-|||0

S Some people do n't believe it , but the scientists have proved it .
A 8 9|||U:DET||||||REQUIRED|||-NONE-|||0

S When it is cold , you have to put a warm coat .
A 9 9|||M:PART|||on|||REQUIRED|||-NONE-|||0

S Last week I celebrated my birthday with my friends .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S I invited twenty peoples in my flat .
A 3 4|||R:NOUN:NUM|||people|||REQUIRED|||-NONE-|||0
A 4 5|||R:PREP|||to|||REQUIRED|||-NONE-|||0

S My girlfriend maked a big cake with strawberries .
A 2 3|||R:VERB:INFL|||made|||REQUIRED|||-NONE-|||0

S We danced until three o'clock in the morning .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S My neighbour he complained because the music was too loud .
A 2 3|||U:PRON||||||REQUIRED|||-NONE-|||0

S I apologised and I turned the music .
A 7 7|||M:PART|||down|||REQUIRED|||-NONE-|||0

S The next day I had to clean the whole flat alone .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S But it was a really great party and everybody enjoyed .
A 10 10|||M:PRON|||it|||REQUIRED|||-NONE-|||0

S It was the happier day of the year .
A 3 4|||R:ADJ:FORM|||happiest|||REQUIRED|||-NONE-|||0

S Although it was late , but nobody wanted to go home .
A 5 6|||U:CONJ||||||REQUIRED|||-NONE-|||0

S I started learning English when I was ten years old .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S At first it was very difficult for me because English grammar is different from Arabic .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S The most difficult thing for me is the spelling .
A 7 8|||U:DET||||||REQUIRED|||-NONE-|||0

S I have many English books and I read every evening .
A 8 8|||M:PRON|||them|||REQUIRED|||-NONE-|||0

S I watch films with subtitles it helps me a lot .
A 5 5|||M:OTHER|||, and|||REQUIRED|||-NONE-|||0

S My teacher says that my pronunciation it is improving .
A 6 7|||U:PRON||||||REQUIRED|||-NONE-|||0

S I hope that I will pass the exam in next June .
A 8 9|||U:PREP||||||REQUIRED|||-NONE-|||0

S After that I want study in a university in London .
A 4 4|||M:VERB:FORM|||to|||REQUIRED|||-NONE-|||0
A 5 6|||R:PREP|||at|||REQUIRED|||-NONE-|||0

S I always check up the new words in a dictionary .
A 3 4|||U:PART||||||REQUIRED|||-NONE-|||0

S Next month I have to take write an important exam .
A 5 6|||U:VERB||||||REQUIRED|||-NONE-|||0

S Last month there was a problem in my office .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S One of my colleagues took a mistake in the report .
A 4 5|||R:VERB|||made|||REQUIRED|||-NONE-|||0

S The manager was angry he blamed all of us .
A 4 4|||M:CONJ|||and|||REQUIRED|||-NONE-|||0

S I explained him that it was not my fault .
A 2 2|||M:PREP|||to|||REQUIRED|||-NONE-|||0

S He listened me carefully and he understood .
A 2 2|||M:PREP|||to|||REQUIRED|||-NONE-|||0

S After that we have discussed about how to avoid such problems .
A 3 4|||U:VERB:TENSE||||||REQUIRED|||-NONE-|||0
A 5 6|||U:PREP||||||REQUIRED|||-NONE-|||0

S Now every report is checked by two persons before we send it .
A 7 8|||R:NOUN|||people|||REQUIRED|||-NONE-|||0

S It was my colleagues mistake , not mine .
A 3 4|||R:NOUN:POSS|||colleague 's|||REQUIRED|||-NONE-|||0

S Last Friday I goed to a new Italian restaurant near my office .
A 3 4|||R:VERB:INFL|||went|||REQUIRED|||-NONE-|||0

S The restaurant was very crowd and we waited for thirty minutes .
A 4 5|||R:MORPH|||crowded|||REQUIRED|||-NONE-|||0

S The waiter was very polite and he recommended us a good wine .
A 8 9|||U:PRON||||||REQUIRED|||-NONE-|||0
A 12 12|||M:OTHER|||to us|||REQUIRED|||-NONE-|||0

S I ordered a pizza and my wife ordered the spaghetti with seafood .
A 8 9|||U:DET||||||REQUIRED|||-NONE-|||0

S The pizza was delicious but the spaghetti were too salty .
A 7 8|||R:VERB:SVA|||was|||REQUIRED|||-NONE-|||0

S The price was reasonable , about twenty euros for person .
A 8 9|||R:PREP|||per|||REQUIRED|||-NONE-|||0

S I will go there again with my colleagues .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S The knifes were not sharp enough .
A 1 2|||R:NOUN:NUM|||knives|||REQUIRED|||-NONE-|||0

S I live in a small flat in the centre of Moscow .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S My flat have two room and a kitchen .
A 2 3|||R:VERB:SVA|||has|||REQUIRED|||-NONE-|||0
A 4 5|||R:NOUN:NUM|||rooms|||REQUIRED|||-NONE-|||0

S The kitchen is small but it is very cosy .
A 4 4|||M:PUNCT|||,|||REQUIRED|||-NONE-|||0

S From window I can see a park .
A 1 1|||M:DET|||the|||REQUIRED|||-NONE-|||0

S My neighbours are quiet , they are old people .
A 4 5|||R:PUNCT|||;|||REQUIRED|||-NONE-|||0

S I pay not much money for the flat .
A 1 1|||M:OTHER|||do n't|||REQUIRED|||-NONE-|||0
A 2 3|||U:ADV||||||REQUIRED|||-NONE-|||0

S I want buy a bigger flat in the future .
A 2 2|||M:VERB:FORM|||to|||REQUIRED|||-NONE-|||0

S In winter I close down the windows because it is cold .
A 4 5|||U:PART||||||REQUIRED|||-NONE-|||0

S I bought some new furnitures for the kitchen .
A 4 5|||R:NOUN:INFL|||furniture|||REQUIRED|||-NONE-|||0

S Football is the most popular sport in Brazil .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S Every boy in my street dreamed to become a famous player .
A 6 7|||R:PART|||of|||REQUIRED|||-NONE-|||0
A 7 8|||R:VERB:FORM|||becoming|||REQUIRED|||-NONE-|||0

S I played football since I was five until I was eighteen .
A 3 3|||M:PREP|||from|||REQUIRED|||-NONE-|||0
A 3 4|||R:OTHER|||when|||REQUIRED|||-NONE-|||0

S My team won the regional championship two times .
A 6 8|||R:OTHER|||twice|||REQUIRED|||-NONE-|||0

S Our coach was very strict and he made us run every morning .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S Now I only watch matches on TV with my fathers friends .
A 9 10|||R:NOUN:POSS|||father 's|||REQUIRED|||-NONE-|||0

S My favourite team is Flamengo , it has millions of fans .
A 5 6|||R:PUNCT|||;|||REQUIRED|||-NONE-|||0

S When Flamengo lose , my father do n't speak all evening .
A 2 3|||R:VERB:SVA|||loses|||REQUIRED|||-NONE-|||0
A 6 7|||R:VERB:SVA|||does|||REQUIRED|||-NONE-|||0

S Last week I am sick and I went to doctor .
A 3 4|||R:VERB:TENSE|||was|||REQUIRED|||-NONE-|||0
A 9 9|||M:DET|||the|||REQUIRED|||-NONE-|||0

S I had a fever and my throat it was hurting .
A 7 8|||U:PRON||||||REQUIRED|||-NONE-|||0

S The doctor asked me some questions and she examined .
A 9 9|||M:PRON|||me|||REQUIRED|||-NONE-|||0

S She gave me some medicines and she said me to rest .
A 4 5|||R:NOUN:NUM|||medicine|||REQUIRED|||-NONE-|||0
A 7 8|||R:VERB|||told|||REQUIRED|||-NONE-|||0

S I stayed in bed for three days .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S Now I feel more good .
A 3 5|||R:OTHER|||better|||REQUIRED|||-NONE-|||0

S My throat very sore and I could n't eat .
A 2 2|||M:VERB|||was|||REQUIRED|||-NONE-|||0

S The nurse measured up my temperature .
A 3 4|||U:PART||||||REQUIRED|||-NONE-|||0

S My tooths also hurt when I drink cold water .
A 1 2|||R:NOUN:INFL|||teeth|||REQUIRED|||-NONE-|||0

S The doctor asked me what was my problem .
A 5 8|||R:WO|||my problem was|||REQUIRED|||-NONE-|||0

S Artificial intelligence is developing at an unprecedented pace .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S Language models can now write essays which they are difficult to distinguish from human texts .
A 7 8|||U:PRON||||||REQUIRED|||-NONE-|||0

S This raises the question how schools should assess their students .
A 4 4|||M:PREP|||of|||REQUIRED|||-NONE-|||0

S Some teachers fear that students will stop to think for themselves .
A 7 9|||R:VERB:FORM|||thinking|||REQUIRED|||-NONE-|||0

S Others argue that these tools , if used responsible , can support learning .
A 8 9|||R:MORPH|||responsibly|||REQUIRED|||-NONE-|||0

S In any case , regulations must keep the pace with technology .
A 7 8|||U:DET||||||REQUIRED|||-NONE-|||0

S It is essential that the developers explain how their systems make decisions .
A 4 5|||U:DET||||||REQUIRED|||-NONE-|||0

S I believe that a balanced approach will benefit the society as a whole .
A 8 9|||U:DET||||||REQUIRED|||-NONE-|||0

S The debate about climate policy is often dominated by short - term interests .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S Although Germany has reduced its emissions , it still relies heavy on coal .
A 10 11|||R:MORPH|||heavily|||REQUIRED|||-NONE-|||0

S Critics claim that a rapid phase - out would endanger thousands of jobs .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S This argument is not entirely convincing , since new jobs would be created in other sectors .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S Furthermore the costs of inaction will be far more higher .
A 1 1|||M:PUNCT|||,|||REQUIRED|||-NONE-|||0
A 8 9|||U:ADV||||||REQUIRED|||-NONE-|||0

S Politicians must explain the citizens why these measures are necessary .
A 3 3|||M:PREP|||to|||REQUIRED|||-NONE-|||0

S Only then the public will accept the sacrifices which are required .
A 2 5|||R:WO|||will the public|||REQUIRED|||-NONE-|||0

S Yesterday I leaved my phone on the bus .
A 2 3|||R:VERB:TENSE|||left|||REQUIRED|||-NONE-|||0

S I did n't notice until I arrived home .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S I was very worried because all my photos is in phone .
A 8 9|||R:VERB:SVA|||are|||REQUIRED|||-NONE-|||0
A 10 10|||M:DET|||the|||REQUIRED|||-NONE-|||0

S I borrowed my roommates phone and called my number .
A 3 4|||R:NOUN:POSS|||roommate 's|||REQUIRED|||-NONE-|||0

S A woman answered and she said she found it under a seat .
A 7 7|||M:VERB:TENSE|||had|||REQUIRED|||-NONE-|||0

S We met in the next morning at the bus station .
A 2 3|||U:PREP||||||REQUIRED|||-NONE-|||0

S Although I wanted to give her some money , but she refused .
A 9 10|||U:CONJ||||||REQUIRED|||-NONE-|||0

S She was very kind , I will never forget her .
A 4 5|||R:PUNCT|||;|||REQUIRED|||-NONE-|||0

S I have not found my charger .
A 6 6|||M:ADV|||yet|||REQUIRED|||-NONE-|||0

S I do n't like shopping in big shopping centres .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S There are too much people and the music is very loud .
A 3 4|||R:ADJ|||many|||REQUIRED|||-NONE-|||0

S I prefer the small shops in my neighbourhood .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S The owners know me and they give me always good advices .
A 6 9|||R:WO|||always give me|||REQUIRED|||-NONE-|||0
A 10 11|||R:NOUN:NUM|||advice|||REQUIRED|||-NONE-|||0

S Last week I bought a jacket , it was on sale .
A 6 7|||R:PUNCT|||;|||REQUIRED|||-NONE-|||0

S The shop assistant helped me to choose the right size .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S When I arrived home , I saw that the jacket had a hole .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S I returned back it and they gave me a new one .
A 2 3|||U:ADV||||||REQUIRED|||-NONE-|||0

S The prices in that shop very high .
A 5 5|||M:VERB|||are|||REQUIRED|||-NONE-|||0

S The jacket was not big .
A 5 5|||M:ADV|||enough|||REQUIRED|||-NONE-|||0

S Reading was always my favourite free time activity .
A 1 2|||R:VERB|||has|||REQUIRED|||-NONE-|||0
A 3 3|||M:VERB|||been|||REQUIRED|||-NONE-|||0

S When I was child , my grandmother read me fairy tales every night .
A 3 3|||M:DET|||a|||REQUIRED|||-NONE-|||0

S Nowadays I read mostly novels and biographies .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S Last month I have read a novel about a family during the war .
A 3 4|||U:VERB:TENSE||||||REQUIRED|||-NONE-|||0

S The author describes the characters so detailed that you feel you know them .
A 5 6|||R:OTHER|||in such|||REQUIRED|||-NONE-|||0
A 6 7|||R:MORPH|||detail|||REQUIRED|||-NONE-|||0

S Unfortunately , young people read less and less books .
A 5 6|||R:ADJ|||fewer|||REQUIRED|||-NONE-|||0
A 7 8|||R:ADJ|||fewer|||REQUIRED|||-NONE-|||0

S I think schools should to encourage reading for pleasure .
A 4 5|||U:VERB:FORM||||||REQUIRED|||-NONE-|||0

S Our teacher explained out the meaning of the poem .
A 3 4|||U:PART||||||REQUIRED|||-NONE-|||0

S Though the book is long , but it is never boring .
A 6 7|||U:CONJ||||||REQUIRED|||-NONE-|||0

S I thinked about the story for days .
A 1 2|||R:VERB:INFL|||thought|||REQUIRED|||-NONE-|||0

S Two years ago I started to work as a volunteer in a animal shelter .
A 11 12|||R:DET|||an|||REQUIRED|||-NONE-|||0

S I go there every saturday morning .
A 4 5|||R:ORTH|||Saturday|||REQUIRED|||-NONE-|||0

S We take care of dogs and cats which were abandoned by they owners .
A 11 12|||R:DET|||their|||REQUIRED|||-NONE-|||0

S The work is hard but very rewarding .
A 4 4|||M:PUNCT|||,|||REQUIRED|||-NONE-|||0

S Volunteering has teached me to be more patient .
A 2 3|||R:VERB:INFL|||taught|||REQUIRED|||-NONE-|||0

S I also made new friends , who share my love for animals .
A 5 6|||U:PUNCT||||||REQUIRED|||-NONE-|||0

S I would recommend everybody to do some volunteer work .
A 3 3|||M:PREP|||that|||REQUIRED|||-NONE-|||0
A 4 5|||U:VERB:FORM||||||REQUIRED|||-NONE-|||0

S The dogs 's cages must be cleaned every day .
A 2 3|||R:NOUN:POSS|||'|||REQUIRED|||-NONE-|||0

S My parents want hope that I will study medicine .
A 2 3|||U:VERB||||||REQUIRED|||-NONE-|||0

S I have a cat , her name is Masha .
A 4 5|||R:PUNCT|||;|||REQUIRED|||-NONE-|||0

S She is five years old and she very clever .
A 7 7|||M:VERB|||is|||REQUIRED|||-NONE-|||0

S Every morning she wakes me at six because she is hungry .
A 5 5|||M:PART|||up|||REQUIRED|||-NONE-|||0

S She likes to sleep on my bed and on the sofa .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S My mother does n't like cats , she prefers dogs .
A 6 7|||R:PUNCT|||;|||REQUIRED|||-NONE-|||0

S When I go to holiday , my neighbour feed her .
A 3 4|||R:PREP|||on|||REQUIRED|||-NONE-|||0
A 8 9|||R:VERB:SVA|||feeds|||REQUIRED|||-NONE-|||0

S I think pets make people more happy .
A 5 7|||R:ADJ:FORM|||happier|||REQUIRED|||-NONE-|||0

S My sisters dog and my cat are friends .
A 1 2|||R:NOUN:POSS|||sister 's|||REQUIRED|||-NONE-|||0

S Our neighbours have three sheeps and a horse .
A 4 5|||R:NOUN:INFL|||sheep|||REQUIRED|||-NONE-|||0

