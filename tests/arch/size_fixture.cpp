// The fixture of tests/arch/check_sizes.py: two functions past 60 lines, one of them excused
// by its `// long:` line; the checker must report exactly the other (62 lines), or it is broken.
// Never built.
namespace fixture {

// A digit separator is no char literal: the brace after it closes this function.
int separated() { return 1'000; }

int tooLong(int x) {
    x += 1;
    x += 2;
    x += 3;
    x += 4;
    x += 5;
    x += 6;
    x += 7;
    x += 8;
    x += 9;
    x += 10;
    x += 11;
    x += 12;
    x += 13;
    x += 14;
    x += 15;
    x += 16;
    x += 17;
    x += 18;
    x += 19;
    x += 20;
    x += 21;
    x += 22;
    x += 23;
    x += 24;
    x += 25;
    x += 26;
    x += 27;
    x += 28;
    x += 29;
    x += 30;
    x += 31;
    x += 32;
    x += 33;
    x += 34;
    x += 35;
    x += 36;
    x += 37;
    x += 38;
    x += 39;
    x += 40;
    x += 41;
    x += 42;
    x += 43;
    x += 44;
    x += 45;
    x += 46;
    x += 47;
    x += 48;
    x += 49;
    x += 50;
    x += 51;
    x += 52;
    x += 53;
    x += 54;
    x += 55;
    x += 56;
    if (x > 0) {  // "{" inside a string or comment is no brace: "}" '}'
        x = 0;
    }
    return x;
}

// long: a table reads better whole (the fixture's excused one)
int excusedLong(int x) {
    switch (x) {
        case 1: return 1;
        case 2: return 2;
        case 3: return 3;
        case 4: return 4;
        case 5: return 5;
        case 6: return 6;
        case 7: return 7;
        case 8: return 8;
        case 9: return 9;
        case 10: return 10;
        case 11: return 11;
        case 12: return 12;
        case 13: return 13;
        case 14: return 14;
        case 15: return 15;
        case 16: return 16;
        case 17: return 17;
        case 18: return 18;
        case 19: return 19;
        case 20: return 20;
        case 21: return 21;
        case 22: return 22;
        case 23: return 23;
        case 24: return 24;
        case 25: return 25;
        case 26: return 26;
        case 27: return 27;
        case 28: return 28;
        case 29: return 29;
        case 30: return 30;
        case 31: return 31;
        case 32: return 32;
        case 33: return 33;
        case 34: return 34;
        case 35: return 35;
        case 36: return 36;
        case 37: return 37;
        case 38: return 38;
        case 39: return 39;
        case 40: return 40;
        case 41: return 41;
        case 42: return 42;
        case 43: return 43;
        case 44: return 44;
        case 45: return 45;
        case 46: return 46;
        case 47: return 47;
        case 48: return 48;
        case 49: return 49;
        case 50: return 50;
        case 51: return 51;
        case 52: return 52;
        case 53: return 53;
        case 54: return 54;
        case 55: return 55;
        case 56: return 56;
        case 57: return 57;
        case 58: return 58;
        case 59: return 59;
    }
    return 0;
}

}  // namespace fixture
