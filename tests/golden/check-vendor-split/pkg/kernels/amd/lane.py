def lane():
    return 0
