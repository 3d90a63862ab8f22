ls -S src/util
ls -r docs
