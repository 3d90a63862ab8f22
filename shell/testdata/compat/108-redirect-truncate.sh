cp data.csv d.csv
: > d.csv
wc -c < d.csv
> e.txt
ls e.txt
