(cd src && pwd)
pwd
