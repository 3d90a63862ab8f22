tar czf s.tgz src && mkdir out && tar xzf s.tgz -C out && find out -type f | sort
diff -r src out/src && echo identical
