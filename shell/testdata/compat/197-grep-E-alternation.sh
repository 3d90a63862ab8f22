grep -E 'ERROR|WARN' log.txt | cut -d' ' -f3 | sort | uniq -c
