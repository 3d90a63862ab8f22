env | grep '^HOME='
env | grep -c '^LC_ALL=C$'
