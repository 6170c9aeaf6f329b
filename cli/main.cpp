// gpusizer: the command-line face of the core. Argument parsing, file/stdin, exit codes.
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>

#include "gpusizer/api.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitBadInput = 2;  // the spec's status for bad input

const char* const kUsage =
    "usage: gpusizer <command> [FILE|-]\n"
    "\n"
    "Scenario commands (one scenario object, or an array of them, from FILE or stdin):\n"
    "  estimate   memory per GPU with its breakdown, fit, speed and time\n"
    "  rank       cloud plans that fit, cheapest first\n"
    "  table      the model-size x workload lookup table\n"
    "  takes      per GPU type, the fewest GPUs (and their layout) that fit\n"
    "  fits       per GPU type, the memory and the fit at the scenario's own GPU count and layout\n"
    "  launch     commands and config files for a scenario and plan\n"
    "Catalogs:\n"
    "  models     model presets\n"
    "  gpus       GPU catalog\n"
    "  instances  cloud instances with prices\n"
    "  messages   every error, warning and note the core gives: code, kind, fields, English\n"
    "Names:\n"
    "  resolve NAME  the preset a typed name or Hub id means (\"llama 3.1 8b\", "
    "\"Qwen/Qwen2.5-72B-Instruct-AWQ\")\n"
    "\n"
    "JSON goes to stdout; bad input exits with status 2 and 'error: <field>: <message>' on stderr.\n"
    "The scenario format is documented in docs/scenario.md.\n";

bool read_input(const std::string& path, std::string* out) {
  if (path == "-") {
    out->assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return true;
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) return false;
  std::ostringstream buffer;
  buffer << file.rdbuf();
  *out = buffer.str();
  return true;
}

bool is_catalog(const std::string& command) {
  return command == "models" || command == "gpus" || command == "instances";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "-h" || std::string(argv[1]) == "--help") {
    std::cout << kUsage;
    return argc < 2 ? kExitBadInput : kExitOk;
  }
  const std::string command = argv[1];
  if (argc > 3) {
    std::cerr << "error: arguments: expected at most one FILE\n" << kUsage;
    return kExitBadInput;
  }
  std::string input;
  if (command == "resolve" && argc == 3 && std::string(argv[2]) != "-") {
    input = argv[2];  // the name itself, not a file
  } else if (!is_catalog(command)) {
    const std::string path = argc == 3 ? argv[2] : "-";
    if (!read_input(path, &input)) {
      std::cerr << "error: input: cannot read " << path << "\n";
      return kExitBadInput;
    }
  }
  const gpusizer::ApiResult result = gpusizer::run_command(command, input);
  if (!result.ok) {
    std::cerr << "error: " << result.error_field << ": " << result.error_message << "\n";
    if (result.error_field == "command") std::cerr << kUsage;
    return kExitBadInput;
  }
  std::cout << result.value.dump(2) << "\n";
  return kExitOk;
}
