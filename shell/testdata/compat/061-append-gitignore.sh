echo "*.tmp" >> .gitignore
cat .gitignore
grep -c . .gitignore
