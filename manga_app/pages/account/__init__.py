"""アカウントとデータ `/account`: download or delete what the site keeps about the reader."""
