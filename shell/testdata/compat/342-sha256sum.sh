sha256sum a.txt b.txt
printf 'abc' | sha256sum
