int untouched;
