cp -r src backup && find backup | sort
cp src newdir 2>/dev/null
echo $?
