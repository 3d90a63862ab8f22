tar czf backup.tgz src docs && tar tzf backup.tgz | sort
