tar cf docs.tar docs && tar tf docs.tar | sort
