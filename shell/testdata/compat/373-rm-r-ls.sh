rm -r src
ls
