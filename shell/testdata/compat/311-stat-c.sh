stat -c '%s %n' data.csv a.txt
stat -c %F src
stat -c %F data.csv
