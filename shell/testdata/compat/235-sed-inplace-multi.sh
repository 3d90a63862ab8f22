sed -i 's/^package /pkg /' src/util/*.go
head -1 src/util/*.go
