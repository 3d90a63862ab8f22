pwd
cd src/util && pwd
cd .. && pwd
cd
pwd
