#include "reprocess_recipe.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include <fmt/format.h>

#include "sonolink/archive/content_sha256.h"

namespace sonolink::cli {
namespace {

// Every key a recipe may hold, with its default.
const nlohmann::json& recipeDefaults() {
    static const nlohmann::json defaults{
        {"x_range_mm", ""},       {"z_range_mm", ""},     {"f_number", 1.5},     {"window", "rectangular"}, {"output", "db"},
        {"dynamic_range_db", 60}, {"gain_db", 0},         {"iq_mhz", 0},         {"display", ""},           {"tgc_db", nlohmann::json::array()},
        {"persistence", 0},       {"grey_map", "linear"}, {"beamformer", "cpu"}, {"dicom", false}};
    return defaults;
}

Status checkKinds(const nlohmann::json& value, const std::string& where) {
    if (!value.is_object()) return fail(ErrorCode::InvalidArgument, fmt::format("recipe {}: not a JSON object", where));
    const auto& defaults = recipeDefaults();
    for (const auto& [key, given] : value.items()) {
        if (!defaults.contains(key)) return fail(ErrorCode::InvalidArgument, fmt::format("recipe {}: unknown key \"{}\"", where, key));
        const auto& wanted = defaults[key];
        const bool same = (wanted.is_number() && given.is_number()) || wanted.type() == given.type();
        if (!same) return fail(ErrorCode::InvalidArgument, fmt::format("recipe {}: \"{}\" must be a {}, not {}", where, key, wanted.type_name(), given.dump()));
        if (given.is_array() && !std::all_of(given.begin(), given.end(), [](const nlohmann::json& v) { return v.is_number(); }))
            return fail(ErrorCode::InvalidArgument, fmt::format("recipe {}: \"{}\" must hold numbers only, not {}", where, key, given.dump()));
    }
    return {};
}

template <typename T> Status oneOf(const nlohmann::json& r, const char* key, const std::map<std::string, T>& names, T& into, const std::string& where) {
    const auto it = names.find(r[key].get<std::string>());
    if (it == names.end()) return fail(ErrorCode::InvalidArgument, fmt::format("recipe {}: \"{}\" cannot be {}", where, key, r[key].dump()));
    into = it->second;
    return {};
}

}  // namespace

Result<Recipe> parseRecipe(const nlohmann::json& value, const std::string& where) {
    if (auto ok = checkKinds(value, where); !ok) return fail(ok.error());
    Recipe recipe;
    recipe.canonical = recipeDefaults();
    recipe.canonical.update(value);
    const auto& r = recipe.canonical;
    auto& b = recipe.beamform;
    b.xRange = r["x_range_mm"];
    b.zRange = r["z_range_mm"];
    if (b.xRange.empty() || b.zRange.empty()) return fail(ErrorCode::InvalidArgument, fmt::format("recipe {}: x_range_mm and z_range_mm are needed", where));
    b.fNumber = r["f_number"];
    b.dynamicRangeDb = r["dynamic_range_db"];
    b.gainDb = r["gain_db"];
    b.iqMHz = r["iq_mhz"];
    b.displayBox = r["display"];
    b.tgcDb = r["tgc_db"].get<std::vector<double>>();
    b.persistence = r["persistence"];
    std::string ignored;
    const std::map<std::string, std::string> windows{{"rectangular", "rectangular"}, {"hann", "hann"}, {"tukey", "tukey"}};
    const std::map<std::string, std::string> outputs{{"db", "db"}, {"envelope", "envelope"}};
    const std::map<std::string, image::GreyMap> maps{
        {"linear", image::GreyMap::Linear}, {"soft", image::GreyMap::Soft}, {"contrast", image::GreyMap::Contrast}};
    const std::map<std::string, std::string> beamformers{{"cpu", "cpu"}};  // the CPU reference: the same bits on every node
    for (auto ok : {oneOf(r, "window", windows, b.window, where), oneOf(r, "output", outputs, b.output, where), oneOf(r, "grey_map", maps, b.greyMap, where),
                    oneOf(r, "beamformer", beamformers, ignored, where)}) {
        if (!ok) return fail(ok.error());
    }
    recipe.dicom = r["dicom"];
    recipe.sha256 = archive::textSha256(r.dump());
    return recipe;
}

Result<Recipe> readRecipe(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) return fail(ErrorCode::NotFound, fmt::format("recipe {}: cannot be read", path.string()));
    auto value = nlohmann::json::parse(in, nullptr, false);
    if (value.is_discarded()) return fail(ErrorCode::InvalidArgument, fmt::format("recipe {}: not valid JSON", path.string()));
    return parseRecipe(value, path.string());
}

std::string beamformArguments(const Recipe& recipe) {
    const auto& r = recipe.canonical;
    std::string args = fmt::format(
        "--x-range {} --z-range {} --f-number {} --window {} --output {} --dynamic-range {} --gain {} --persistence {} --grey-map {}",
        r["x_range_mm"].get<std::string>(), r["z_range_mm"].get<std::string>(), r["f_number"].dump(), r["window"].get<std::string>(),
        r["output"].get<std::string>(), r["dynamic_range_db"].dump(), r["gain_db"].dump(), r["persistence"].dump(), r["grey_map"].get<std::string>());
    if (r["iq_mhz"].get<double>() > 0) args += " --iq " + r["iq_mhz"].dump();
    if (!r["display"].get<std::string>().empty()) args += " --display " + r["display"].get<std::string>();
    if (!r["tgc_db"].empty()) {
        args += " --tgc";
        for (double tgc : r["tgc_db"]) args += fmt::format(" {}", tgc);
    }
    return args;
}

}  // namespace sonolink::cli
