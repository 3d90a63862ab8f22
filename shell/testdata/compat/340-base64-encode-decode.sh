echo hello | base64
echo aGVsbG8K | base64 -d
base64 data.csv | head -2
