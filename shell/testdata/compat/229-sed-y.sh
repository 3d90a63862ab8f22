echo hello | sed 'y/abcdefghij/ABCDEFGHIJ/'
