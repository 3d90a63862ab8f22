mkdir -p a/b/c && ls -R a
