grep '\$5' README.md
grep 'users/{id}' docs/api/endpoints.md
grep '^GET' docs/api/endpoints.md | wc -l
grep -c 'e$' words.txt
