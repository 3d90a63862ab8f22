comm a.txt b.txt
comm -12 a.txt b.txt
comm -23 a.txt b.txt
