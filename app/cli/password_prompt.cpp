#include "password_prompt.h"

#include <termios.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace sonolink::cli {

std::optional<std::string> readPassword(const std::string& user, const char* purpose, bool fromStdin) {
    std::string password;
    if (fromStdin) {
        std::getline(std::cin, password);
        return password;
    }
    std::FILE* tty = std::fopen("/dev/tty", "r+");
    if (tty == nullptr) return std::nullopt;
    termios before{};
    const int fd = ::fileno(tty);
    const bool quiet = ::tcgetattr(fd, &before) == 0;
    if (quiet) {
        termios silent = before;
        silent.c_lflag &= static_cast<tcflag_t>(~ECHO);
        ::tcsetattr(fd, TCSAFLUSH, &silent);
    }
    std::fprintf(tty, "Password for %s (%s): ", user.c_str(), purpose);
    std::fflush(tty);
    for (int c = std::fgetc(tty); c != EOF && c != '\n'; c = std::fgetc(tty)) password += static_cast<char>(c);
    if (quiet) ::tcsetattr(fd, TCSAFLUSH, &before);
    std::fputc('\n', tty);
    std::fclose(tty);
    return password;
}

}  // namespace sonolink::cli
