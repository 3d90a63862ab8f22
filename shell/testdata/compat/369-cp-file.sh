cp a.txt c.txt && cat c.txt
cp a.txt b.txt docs/ && ls docs
