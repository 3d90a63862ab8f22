find . -name '*.md' -delete
find . -name '*.md' | wc -l
ls docs
