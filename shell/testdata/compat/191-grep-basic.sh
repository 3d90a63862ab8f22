grep apple notes.txt
