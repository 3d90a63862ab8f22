printf 'foo\nbar\nbaz\n' | grep ba
