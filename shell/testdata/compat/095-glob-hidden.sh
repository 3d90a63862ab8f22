echo .*
echo .h*
