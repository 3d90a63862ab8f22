diff a.txt b.txt
echo "exit=$?"
