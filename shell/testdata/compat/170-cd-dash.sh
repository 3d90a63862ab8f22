cd src
cd ../docs
cd - > /dev/null
pwd
cd /nonexistent 2>/dev/null
echo $?
