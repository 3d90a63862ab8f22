echo hello world
echo "a  b"
echo 'single $HOME'
echo -n no-newline
echo
echo -e 'tab\there'
echo -e 'a\nb'
echo "$HOME"
