export APP_ENV=test
env | grep '^APP_ENV='
