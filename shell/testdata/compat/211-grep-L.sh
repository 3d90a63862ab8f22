grep -L TODO src/*.go src/*/*.go
