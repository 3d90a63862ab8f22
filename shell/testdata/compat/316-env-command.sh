env X=1 env | grep '^X='
env GREETING=hi printenv GREETING
printenv HOME
