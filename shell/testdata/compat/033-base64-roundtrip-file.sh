base64 data.csv > data.b64
base64 -d data.b64 > data2.csv
cmp data.csv data2.csv && echo same
