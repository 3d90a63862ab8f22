ls src/util | xargs -I{} echo "file: {}"
