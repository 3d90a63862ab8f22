sha256sum data.csv > sums.txt && sha256sum -c sums.txt
