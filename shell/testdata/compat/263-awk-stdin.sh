ls src | awk '{print "entry:", $0}'
