tr a-z A-Z < a.txt
echo Hello | tr '[:upper:]' '[:lower:]'
