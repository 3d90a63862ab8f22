ls | grep -v '\.txt$'
