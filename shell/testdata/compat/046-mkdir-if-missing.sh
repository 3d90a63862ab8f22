test -d build || mkdir build
test -d build || mkdir build
ls -d build
