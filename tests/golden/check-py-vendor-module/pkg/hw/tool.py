import subprocess

print(subprocess.run(["nvidia-smi", "-L"], capture_output=True))
