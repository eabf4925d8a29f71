"""保存した話 `/offline`: the chapters this browser keeps for reading offline."""
