// -C: calls into libstdc++ through the PLT with mangled names.
#include <string>
#include <iostream>

int main() {
    std::string s("hello");
    s += " world";
    std::cout << s.size() << std::endl;
    return 0;
}
