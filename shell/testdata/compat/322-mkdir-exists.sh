mkdir src 2>/dev/null
echo $?
mkdir -p src
echo $?
mkdir new1 new2 && ls -d new*
