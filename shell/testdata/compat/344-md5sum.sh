md5sum a.txt
