ln -s src/util u
ls u
head -1 u/strings.go
realpath u
