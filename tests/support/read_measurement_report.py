"""read_measurement_report.py SR IMAGE: reads a TID 1500 measurement report with pydicom, as a
PACS viewer would, and prints one line per value: "<tracking id> <concept> <value> <unit> <shape>
<graphic data>", checking on the way that every shape is selected from IMAGE (by its SOP
Instance UID), that IMAGE is the report's evidence, and that the report files with the image's
patient and study. Prints "measurement report ok" last; exits 1 with the reason otherwise."""
import sys

import pydicom


def fail(why):
    print("FAIL:", why)
    sys.exit(1)


def concept(item):
    return item.ConceptNameCodeSequence[0].CodeMeaning if "ConceptNameCodeSequence" in item else ""


def shape_of(item, image_uid):
    """The SCOORD an item is inferred from, checked to be selected from the image."""
    for child in item.get("ContentSequence", []):
        if child.RelationshipType == "INFERRED FROM" and child.ValueType == "SCOORD":
            refs = [r for r in child.ContentSequence if r.RelationshipType == "SELECTED FROM" and r.ValueType == "IMAGE"]
            if not refs or refs[0].ReferencedSOPSequence[0].ReferencedSOPInstanceUID != image_uid:
                fail(f"the shape of '{concept(item)}' is not selected from the image")
            points = ",".join(f"{v:g}" for v in child.GraphicData)
            return f"{child.GraphicType} {points}"
    fail(f"'{concept(item)}' is inferred from no shape")


def main():
    sr = pydicom.dcmread(sys.argv[1])
    image = pydicom.dcmread(sys.argv[2])
    if sr.SOPClassUID != "1.2.840.10008.5.1.4.1.1.88.33" or sr.Modality != "SR":
        fail(f"not a Comprehensive SR: {sr.SOPClassUID} {sr.Modality}")
    for keyword in ("PatientName", "PatientID", "StudyInstanceUID", "AccessionNumber"):
        if sr.get(keyword) != image.get(keyword):
            fail(f"{keyword} differs from the image's: {sr.get(keyword)!r} vs {image.get(keyword)!r}")
    if sr.SeriesInstanceUID == image.SeriesInstanceUID:
        fail("the report shares the image's series")
    if concept(sr) != "Imaging Measurement Report" or sr.ContentTemplateSequence[0].TemplateIdentifier != "1500":
        fail(f"the root is '{concept(sr)}'")
    evidence = [i.ReferencedSOPInstanceUID for s in sr.CurrentRequestedProcedureEvidenceSequence
                for series in s.ReferencedSeriesSequence for i in series.ReferencedSOPSequence]
    if image.SOPInstanceUID not in evidence:
        fail("the image is not the report's evidence")
    measurements = [i for i in sr.ContentSequence if concept(i) == "Imaging Measurements"]
    if len(measurements) != 1:
        fail("no Imaging Measurements container")
    for group in measurements[0].ContentSequence:
        if concept(group) != "Measurement Group":
            fail(f"'{concept(group)}' in Imaging Measurements")
        tracking = {concept(i): i for i in group.ContentSequence if i.RelationshipType == "HAS OBS CONTEXT"}
        label = tracking["Tracking Identifier"].TextValue
        pydicom.uid.UID(tracking["Tracking Unique Identifier"].UID)
        for item in (i for i in group.ContentSequence if i.RelationshipType == "CONTAINS"):
            if item.ValueType == "NUM":
                value = item.MeasuredValueSequence[0]
                unit = value.MeasurementUnitsCodeSequence[0].CodeValue
                print(f"{label} {concept(item)} {float(value.NumericValue):.3f} {unit} {shape_of(item, image.SOPInstanceUID)}")
            elif item.ValueType == "TEXT":
                print(f"{label} {concept(item)} '{item.TextValue}' {shape_of(item, image.SOPInstanceUID)}")
    print("measurement report ok")


if __name__ == "__main__":
    main()
