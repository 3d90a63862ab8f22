wc -l src/*.go src/*/*.go
