export TMPV=1
unset TMPV
env | grep -c '^TMPV='
echo ${TMPV:-gone}
