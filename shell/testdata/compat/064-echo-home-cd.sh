cd src
cd
pwd
cd ~/docs && pwd
