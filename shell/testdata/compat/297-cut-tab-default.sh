cut -f2 tabs.tsv
cut -f1,3 tabs.tsv
