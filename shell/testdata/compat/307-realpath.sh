realpath data.csv
realpath src/../docs
cd src && realpath ../a.txt
